"""Child processes of tests get Ctrl-C as at a terminal."""

from __future__ import annotations

import signal


def default_sigint() -> None:
    """A ``preexec_fn``: SIGINT must reach the child even when the test process inherited it
    ignored or blocked (a shell's background job, or an earlier test's server), as at a terminal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
