"""Stage 5, teach: a deck taught from a few photos per card (issue 15).

A taught deck is a set of prototypes per card: embeddings (embed.py) of the card's rectified face
from each taught photo and of altered copies of it (augment.py), found and rectified by the same
locate and rectify stages that read cards (faces.py). A card is read by its nearest prototypes,
with a confidence from the margin between the best card and the next (deck.py). teach.py turns a
folder of photos into a taught deck, file.py stores it, reader.py reads with it and falls back to
the built-in recognizer for cards not taught.
"""
