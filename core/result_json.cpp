#include "result_json.h"
