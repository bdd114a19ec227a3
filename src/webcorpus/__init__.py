"""webcorpus: index company websites into a searchable corpus."""

__version__ = "0.1.0"
