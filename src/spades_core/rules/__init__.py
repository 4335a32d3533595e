"""The rules layer: the trick rules on ints, the seeded deal, hand results,
scoring, legality, the variant contract with its checked hooks, and the
registry of variants. It imports only the values layer."""
