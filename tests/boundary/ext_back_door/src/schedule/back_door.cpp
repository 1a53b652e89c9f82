// A fixture for include_boundary.cmake (never compiled): an extension through the back door.
#include "../runtime_state.hpp"
