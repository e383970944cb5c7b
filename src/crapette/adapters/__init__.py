"""Adapters to the reinforcement-learning and game-AI ecosystems.

They need optional dependencies and are not imported by ``import crapette``:

- [`crapette.adapters.encoding`][crapette.adapters.encoding]: integer actions, action masks,
  observation vectors (``numpy`` for the arrays);
- [`crapette.adapters.pettingzoo`][crapette.adapters.pettingzoo]: a PettingZoo AEC environment
  (``pip install crapette[pettingzoo]``);
- [`crapette.adapters.openspiel`][crapette.adapters.openspiel]: the OpenSpiel game
  ``python_crapette`` (``pip install crapette[openspiel]``).
"""
