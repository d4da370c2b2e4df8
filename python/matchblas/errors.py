"""matchblas's exceptions: one per kind of C status (include/matchblas/common.h).

Every failed call raises a subclass of :class:`Error` that is also the
builtin exception a Python caller would expect (``ValueError`` for bad input,
``MemoryError``, ``FileNotFoundError``, ...), carrying the C status
(``.status``, its short name ``.status_name``) and the library's message,
which names what was wrong and where. An interrupted call (Ctrl-C) raises
``KeyboardInterrupt`` as usual.
"""

import errno
import os

from . import _core


class Error(Exception):
    """A failed matchblas call: ``status`` is the C interface's negative
    MATCHBLAS_ERR_* value, ``status_name`` its short name."""

    def __init__(self, status, message):
        self.status = status
        self.status_name = _core.status_string(status)
        self.message = message
        super().__init__(f"{self.status_name}: {message}")

    def __reduce__(self):  # pickled by its arguments (a process pool's worker raising it)
        return type(self), (self.status, self.message)


class InvalidInputError(Error, ValueError):
    """The input cannot be taken: dimensions, layout or types, index
    pointers, an index out of range, a duplicate (the pre-pass), a NaN or
    infinite value, a graph kind the algorithm does not accept."""


class UnknownAlgorithmError(Error, ValueError):
    """No algorithm of that name solves that problem (``algorithms()`` lists them)."""


class OptionError(Error, ValueError):
    """An option the algorithm does not take, a bad value, or bad run settings."""


class UnavailableError(Error, RuntimeError):
    """The algorithm cannot run here: this build lacks what it needs, or there is no GPU."""


class FileError(Error, ValueError):
    """A file that cannot be read or is not valid Matrix Market (or marriage format)."""


class MissingFileError(Error, FileNotFoundError):
    """The file does not exist (``errno`` ENOENT, ``filename`` the path)."""

    def __init__(self, status, message, filename=None):
        super().__init__(status, message)
        self.errno, self.strerror, self.filename = errno.ENOENT, os.strerror(errno.ENOENT), filename

    def __str__(self):  # as every Error's (OSError's would win otherwise)
        return f"{self.status_name}: {self.message}"

    def __reduce__(self):
        return type(self), (self.status, self.message, self.filename)


class OutOfMemoryError(Error, MemoryError):
    """An allocation failed (host or GPU)."""


class DeviceError(Error, RuntimeError):
    """A CUDA call failed."""


class InternalError(Error, RuntimeError):
    """A bug in matchblas: please report it with the message."""


# The C statuses (common.h) and their exceptions.
_BY_STATUS = {
    -1: InvalidInputError,   # null argument
    -2: InvalidInputError,   # bad job
    -3: InvalidInputError,   # bad dimension
    -4: InvalidInputError,   # bad format
    -5: InvalidInputError,   # bad pointers
    -6: InvalidInputError,   # index out of range
    -7: InvalidInputError,   # duplicate entry
    -8: InvalidInputError,   # bad value
    -9: InvalidInputError,   # not symmetric
    -10: OutOfMemoryError,
    -11: InternalError,
    -12: UnknownAlgorithmError,
    -13: OptionError,
    -14: UnavailableError,
    -15: FileError,
    -16: DeviceError,
    -17: InvalidInputError,  # bad input
}

INTERRUPTED = -18


def raise_for(status, message):
    """Raises the exception of a negative C status (KeyboardInterrupt for an
    interrupted call); returns for 0 and the positive ones."""
    if status >= 0:
        return
    if status == INTERRUPTED:
        raise KeyboardInterrupt(message)
    raise _BY_STATUS.get(status, Error)(status, message)
