"""Stage 3, read: a rectified card's colour and symbol, and how sure the reading is.

colour.py    colour from the card's own pixels, white-balanced on its border
symbols.py   the symbol classifier (HOG of the card's glyph, a small network)
train.py     trains the symbol classifier on rendered faces
"""
