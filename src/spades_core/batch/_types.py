"""Array type names shared by the batch modules."""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

U64: TypeAlias = npt.NDArray[np.uint64]
"""52-bit card masks, one per row."""
I8: TypeAlias = npt.NDArray[np.int8]
I32: TypeAlias = npt.NDArray[np.int32]
I64: TypeAlias = npt.NDArray[np.int64]
Bools: TypeAlias = npt.NDArray[np.bool_]
Ints: TypeAlias = npt.NDArray[np.integer[Any]]
Ids: TypeAlias = npt.NDArray[np.intp]
"""Action ids or row indices."""
