"""The former home of :mod:`tajmahal.web.seat_messages` (deprecated): what each seat's page
receives, renamed for what it holds.

The same names, the same objects; importing this module warns: import from the new home
(this module is removed in 0.4.0).
"""

from tajmahal._moved import warn_moved
from tajmahal.web.seat_messages import (
    board_state,
    board_svg,
    decision_lines,
    live_board,
    move_label,
    move_labels,
    people_names,
    public_document,
    seat_document,
    state_frame,
    state_text,
    whole_log,
)

__all__ = [
    "board_state",
    "board_svg",
    "decision_lines",
    "live_board",
    "move_label",
    "move_labels",
    "people_names",
    "public_document",
    "seat_document",
    "state_frame",
    "state_text",
    "whole_log",
]

warn_moved(__name__, "tajmahal.web.seat_messages")
