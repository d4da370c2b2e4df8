// Must not build: a datasets/ source sees only the include roots of datasets
// and lib (CMakeLists.txt, "the layers"), so this include of a matcher is
// not found. The CTest test layers/back_edge expects the compiler to report the header missing.
#include "matchers/registry.hpp"

int main() { return 0; }
