"""The verify variants, by family; `catalogue.VARIANTS` lists every recording in order."""
