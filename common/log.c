/* SPDX-License-Identifier: BSD-3-Clause */
/* The switch's log type (common/log.h). */
#include "log.h"

RTE_LOG_REGISTER_DEFAULT(vsw_logtype, INFO);
