"""``ikusa serve``: the web table, its JSON API and the BCDice-API v2, one FastAPI app."""
