"""The engine layer: the game value and its one step, views, records, the
encoding of games, play-outs and deal sampling. It imports the rules and
values layers; the integrations (bots, batch, environments, simulation, the
command line, the testing kit) import it."""
