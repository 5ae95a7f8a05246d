#include "cpu_backend.h"
