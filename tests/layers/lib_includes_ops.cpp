// Must not build: a lib/ source sees only lib's include root, so an include
// of the layer above (ops) is not found. Built by the CTest test
// layers/back_edge_lib, which expects the compiler to report the header missing.
#include "ops/argmax.hpp"

int main() { return 0; }
