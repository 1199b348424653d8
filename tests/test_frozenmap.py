from tajmahal.rules.frozenmap import FrozenMap


def test_equal_maps_hash_equal_whatever_the_insertion_order() -> None:
    a = FrozenMap({"x": 1, "y": 2})
    b = FrozenMap({"y": 2, "x": 1})
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1


def test_frozen_map_is_a_read_only_mapping() -> None:
    m = FrozenMap({"agra": (0, None)})
    assert dict(m) == {"agra": (0, None)} and m != FrozenMap({"agra": (1, None)})
    assert not hasattr(m, "__setitem__")
    assert repr(m) == "FrozenMap({'agra': (0, None)})"
