#include "model_weights.h"
