"""hexengine: a Hex-playing engine: rules, evaluations and alpha-beta search."""
__version__ = "0.1.0"
