"""The game itself: components, states, moves, the engine and scoring. Pure, no I/O."""
