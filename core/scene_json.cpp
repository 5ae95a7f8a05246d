#include "scene_json.h"
