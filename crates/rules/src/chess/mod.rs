//! The 8×8 family: standard chess, Horde and Atomic.
