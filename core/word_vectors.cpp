#include "word_vectors.h"
