"""maai d100 tables (S-G07): the shipped placeholders (maai/tables.py)."""
