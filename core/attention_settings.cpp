#include "attention_settings.h"
