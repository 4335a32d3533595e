"""The values layer: cards, seats, actions, options, errors, the phase and the
argument checks. It imports nothing else of the package; every other layer
builds on it."""
