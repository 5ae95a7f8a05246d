#include "pooling.h"
