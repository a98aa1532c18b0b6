/* SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause */
/* The compat RX driver's interface to its test (see sim_rx_driver.c). */
#ifndef SIM_RX_DRIVER_H
#define SIM_RX_DRIVER_H

#include <linux/ptr_ring.h>
#include <linux/types.h>

struct device;
struct sim_priv;

struct sim_priv *sim_rx_open(struct device *dev, struct ptr_ring *stack, u32 pass_every);
int sim_hw_receive(struct sim_priv *priv, int n, u32 len);
void sim_rx_counters(struct sim_priv *priv, u64 *packets, u64 *passed, u64 *dropped);
u32 sim_rx_pool_id(struct sim_priv *priv);
void sim_rx_close(struct sim_priv *priv);

#endif
