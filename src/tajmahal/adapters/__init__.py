"""Adapters to reinforcement-learning and game-theory frameworks (optional extras).

Nothing else in the library imports this package; each module needs its extra:

- :mod:`tajmahal.adapters.actions`: the fixed action space (``encode``/``decode``, masks);
- :mod:`tajmahal.adapters.observations`: a :class:`~tajmahal.PlayerView` as a flat array;
- :mod:`tajmahal.adapters.rewards`: the end-of-game rewards (rank or score difference);
- :mod:`tajmahal.adapters.pettingzoo_env`: a PettingZoo AEC environment (``tajmahal[pettingzoo]``);
- :mod:`tajmahal.adapters.gymnasium_env`: a Gymnasium environment, one seat against bots
  (``tajmahal[gymnasium]``);
- :mod:`tajmahal.adapters.openspiel_game`: the OpenSpiel game ``python_tajmahal``
  (``tajmahal[openspiel]``).

The first three need only numpy.  See the documentation page "Adapters".

>>> from tajmahal.adapters.actions import ActionSpace
>>> ActionSpace().size
585
"""
