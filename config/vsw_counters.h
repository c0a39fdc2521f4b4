/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The table of a port's counters and gauges: one row each, from which
 * come the counter struct the workers write (switch/datapath/stats.h),
 * the members of the telemetry reply /vsw/port,NAME (switch/api), the
 * Prometheus families of `vswctl metrics` (tools/vswctl) and the table
 * of docs/telemetry.md (`vsw --help-counters --markdown`, diff-tested by
 * tests/unit/doc_tables.sh).  Plain C, no DPDK: vswctl includes it.
 *
 * X(KEY, SOURCE, PROMETHEUS NAME, TYPE, HELP)
 *   KEY     the telemetry key, and the struct field for SOURCE CTR
 *   SOURCE  CTR: a counter of struct vsw_port_ctrs (each worker's own,
 *           summed by control, less the value at the last stats/clear);
 *           PORT: a value of the port itself (its config, its kind, the
 *           FDB), added by the telemetry API
 * The per-reason drops (drop_*) and the flush histogram (flush_*) are
 * their own tables (datapath/stats.h).
 */
#ifndef VSW_COUNTERS_H
#define VSW_COUNTERS_H

#define VSW_PORT_COUNTERS(X)                                                   \
	X(rx_packets, CTR, "vsw_port_rx_packets_total", "counter",             \
	  "Packets received")                                                  \
	X(rx_bytes, CTR, "vsw_port_rx_bytes_total", "counter",                 \
	  "Bytes received")                                                    \
	X(tx_packets, CTR, "vsw_port_tx_packets_total", "counter",             \
	  "Packets sent")                                                      \
	X(tx_bytes, CTR, "vsw_port_tx_bytes_total", "counter", "Bytes sent")   \
	X(unicast, CTR, "vsw_port_unicast_total", "counter",                   \
	  "Received packets forwarded to their one known port")                \
	X(flooded, CTR, "vsw_port_flooded_total", "counter",                   \
	  "Received packets flooded (broadcast, multicast, unknown "           \
	  "destination)")                                                      \
	X(flood_copies, CTR, "vsw_port_flood_copies_total", "counter",         \
	  "Copies the port's flooded packets made, one per output that was "   \
	  "up")                                                                \
	X(tx_flushes, CTR, "vsw_port_tx_flushes_total", "counter",             \
	  "Transmit bursts handed to the port")                                \
	X(tx_flushes_early, CTR, "vsw_port_tx_flushes_early_total", "counter", \
	  "Of those, partial bursts sent before tx-flush-interval-us had "     \
	  "passed because waiting gathered nothing (tx-flush-adaptive)")       \
	X(tx_holds, CTR, "vsw_port_tx_holds_total", "counter",                 \
	  "Times the port's queue was full and vsw began holding what it "     \
	  "refused (tx-hold-us) instead of dropping it")                       \
	X(macs_limited, CTR, "vsw_port_macs_limited_total", "counter",         \
	  "New source MACs not learned: the port held max-macs entries "       \
	  "(about one per frame, not per MAC)")                                \
	X(offload_rx, CTR, "vsw_port_offload_rx_total", "counter",             \
	  "Received frames that left work to the host (a TSO frame, a "        \
	  "checksum to fill) and passed the checks")                           \
	X(tso_segmented, CTR, "vsw_port_tso_segmented_total", "counter",       \
	  "TSO frames vsw cut into segments for this output (it takes no "     \
	  "TSO, or its mtu is below the frame's segments)")                    \
	X(tso_segments, CTR, "vsw_port_tso_segments_total", "counter",         \
	  "Segments those frames made (each also one of tx_packets)")          \
	X(csum_filled, CTR, "vsw_port_csum_filled_total", "counter",           \
	  "Frames whose TCP/UDP checksum vsw filled in for this output (it "   \
	  "takes none left to fill)")                                          \
	X(tx_linearized, CTR, "vsw_port_tx_linearized_total", "counter",       \
	  "Chained frames vsw copied into one buffer for this output (it "     \
	  "sends no chains)")                                                  \
	X(connects, PORT, "vsw_port_connects_total", "counter",                \
	  "Guest connections (vhost-user)")                                    \
	X(disconnects, PORT, "vsw_port_disconnects_total", "counter",          \
	  "Guest disconnections (vhost-user)")                                 \
	X(guest_kicks, PORT, "vsw_port_guest_kicks_total", "counter",          \
	  "Guest notifications that arrived, all queues")                      \
	X(guest_calls, PORT, "vsw_port_guest_calls_total", "counter",          \
	  "Interrupts sent to the guest, all queues")                          \
	X(queues, PORT, "vsw_port_queues", "gauge", "Rx queues polled")        \
	X(queues_max, PORT, "vsw_port_queues_max", "gauge",                    \
	  "Rx queues the port may have polled (the queues key)")               \
	X(guest_queue_pairs, PORT, "vsw_port_guest_queue_pairs", "gauge",      \
	  "Queue pairs the guest has (vhost-user)")                            \
	X(guest_rx_queues_fed, PORT, "vsw_port_guest_rx_queues_fed", "gauge",  \
	  "Guest rx queues vsw sends into now (vhost-user)")                   \
	X(mtu, PORT, "vsw_port_mtu", "gauge",                                  \
	  "MTU: frames up to mtu + 18 bytes pass")                             \
	X(max_macs, PORT, "vsw_port_max_macs", "gauge",                        \
	  "Learned MACs the port may hold (0: no limit)")                      \
	X(fdb_entries, PORT, "vsw_port_fdb_entries", "gauge",                  \
	  "MAC table entries learned on the port")                             \
	X(tx_queues_shared, PORT, "vsw_port_tx_queues_shared", "gauge",        \
	  "1 when workers share a tx queue of the port")

#endif /* VSW_COUNTERS_H */
