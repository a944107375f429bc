"""Built-in formats; each module registers its reader and writer with :mod:`bibconv.registry`."""
