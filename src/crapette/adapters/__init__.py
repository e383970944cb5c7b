"""Adapters to the reinforcement-learning and game-AI ecosystems.

They need optional dependencies and are not imported by ``import crapette``:

- :mod:`crapette.adapters.encoding`: integer actions, action masks, observation vectors
  (``numpy`` for the arrays);
- :mod:`crapette.adapters.pettingzoo`: a PettingZoo AEC environment
  (``pip install crapette[pettingzoo]``);
- :mod:`crapette.adapters.openspiel`: the OpenSpiel game ``python_crapette``
  (``pip install crapette[openspiel]``).
"""
