

def test_an_oversized_message_or_a_bad_ready_closes_the_connection(
    arena: tuple[Server, dict[str, str]],
) -> None:
    server, tokens = arena
    socket = bot_socket(server, tokens["other"])
    assert ready(socket, 0)["type"] == "welcome"
    socket.send(json.dumps({"type": "move", "padding": "x" * 70_000}))  # over 64 KiB
    assert closed_code(socket) == 1008
    socket = bot_socket(server, tokens["other"])
    socket.send(json.dumps({"type": "ready", "version": 2}))  # a version it does not speak
    message = receive(socket)
    assert message["type"] == "error" and "version 2" in message["message"]
    assert closed_code(socket) == 4400
    socket = bot_socket(server, tokens["other"])
    socket.send(json.dumps({"type": "ready", "version": 1, "concurrency": 1000}))
    assert "concurrency" in receive(socket)["message"]
    assert closed_code(socket) == 4400
