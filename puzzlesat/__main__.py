from .program import entry

entry()
