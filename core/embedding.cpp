#include "embedding.h"
