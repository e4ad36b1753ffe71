"""Stage 4, track: frames in, card events out (the discard pile, the draw pile, reveal mode).

tracker.py   when a card has settled on the pile, and which card it is
pipeline.py  the camera loop: motion, the recognizer on settled cards, events and the camera view
"""
