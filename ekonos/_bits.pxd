# Bit helpers on 64-bit masks, shared by every extension (the engine and the search cimport them).
# Spaces, cards and seats are bits of a uint64_t; these are the only bit tricks in the project.
# Each is inline, nogil and noexcept: they compile into the caller's loop.

from libc.stdint cimport uint64_t

cdef extern from *:
    """
    static inline int ek_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int ek_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    """
    int popcount "ek_popcount"(unsigned long long x) noexcept nogil
    int ctz "ek_ctz"(unsigned long long x) noexcept nogil   # undefined for x == 0


cdef inline uint64_t bit(int i) noexcept nogil:
    """The mask with only bit i set."""
    return (<uint64_t>1) << i


cdef inline int select_bit(uint64_t m, int k) noexcept nogil:
    """Index of the k-th set bit of m (0-based, lowest first); m must have more than k bits."""
    while k > 0:
        m &= m - 1
        k -= 1
    return ctz(m)
