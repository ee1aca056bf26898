"""paperscore: NLP evaluation metrics that give the number the paper's reference tool gives.

Each metric family is a submodule with a `compute(...)` function returning a flat dict of
floats: `paperscore.micro_macro.compute(predictions, references, convention="maven")`.
Submodules load on first use, so `import paperscore` imports nothing but numpy.
"""

import importlib
import importlib.util

from .core import VERSION as __version__


def __getattr__(name):
    if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}"):
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'paperscore' has no attribute {name!r}")
