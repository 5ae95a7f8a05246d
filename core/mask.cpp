#include "mask.h"
