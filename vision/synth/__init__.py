"""Synthetic training data: procedural tables, card scenes with exact corner labels, YOLO writers,
and the scripted demo recording."""
