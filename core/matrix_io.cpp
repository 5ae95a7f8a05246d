#include "matrix_io.h"
