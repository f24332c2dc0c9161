"""The only modules that import numba. Kernels take arrays and scalars, never user objects."""
