/* Interrupting a long call of matchblas's C interface (a Ctrl-C, a time
 * limit): the caller gives the library an int flag, and sets it (to any
 * nonzero value) from another thread or a signal handler while a call runs.
 *
 *   static int stop = 0;
 *   matchblas_set_interrupt_flag(&stop);   // this thread's later calls poll it
 *   ... on another thread: __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
 *   status = matchblas_match(...);        // MATCHBLAS_ERR_INTERRUPTED
 *
 * The flag belongs to the thread that sets it: calls made from that thread
 * poll it until it is replaced (NULL: no flag). It is read with a relaxed
 * atomic load, not written: clear it yourself before the next call.
 * A call polls it when it starts, between the steps of building its graph
 * and after, and the algorithms with phases or rounds poll it between them
 * (roma-sparse, roma, rama, the auction, awpm, the pre-pass's phases and
 * searches: see docs/ARCHITECTURE.md); a one-pass algorithm (greedy,
 * suitor, ...) and a GPU kernel in flight run to the end first. An interrupted call returns MATCHBLAS_ERR_INTERRUPTED with no
 * result, as any failed call. */
#ifndef MATCHBLAS_INTERRUPT_H
#define MATCHBLAS_INTERRUPT_H

#ifdef __cplusplus
extern "C" {
#endif

void matchblas_set_interrupt_flag(const int* flag);

#ifdef __cplusplus
}
#endif

#endif /* MATCHBLAS_INTERRUPT_H */
