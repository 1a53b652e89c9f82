// A fixture for include_boundary.cmake (never compiled): the core including an extension.
#include "locus/dataflow/graph.hpp"
