/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/*
 * <pagepool/telemetry.h> in a library built without the telemetry server
 * (meson -Dtelemetry=disabled, or jansson not found): the calls exist and
 * say so.
 * Context: any. Layer: telemetry.
 */
#include <errno.h>

#include <pagepool/telemetry.h>

int pp_telemetry_start(const struct pp_telemetry_config *cfg)
{
	(void)cfg;
	return -EOPNOTSUPP;
}

void pp_telemetry_stop(void)
{
}

int pp_telemetry_socket_path(char *buf, size_t len)
{
	(void)buf;
	(void)len;
	return -EOPNOTSUPP;
}
