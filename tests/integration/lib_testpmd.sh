#!/bin/bash
# testpmd guests for the integration tests (sourced after lib.sh): a
# virtio-user testpmd on a vsw vhost-user socket, interactive, driven
# through a fifo; its port's counters read back from its log.
command -v dpdk-testpmd >/dev/null || skip "dpdk-testpmd not installed"

# testpmd driven through a fifo: tp_start NAME SOCK QUEUES [testpmd args]
declare -A TP_FD TP_PID
tp_start() {
	local n=$1 sock=$2 q=$3; shift 3
	local gp=${PREFIX}tp$n fifo=$T/$n.fifo
	PREFIXES+=("$gp")
	mkfifo "$fifo"
	# shellcheck disable=SC2046
	stdbuf -oL dpdk-testpmd --lcores 0@0,1@0 --file-prefix "$gp" $(mem_args 512) --single-file-segments --no-pci \
		--vdev "net_virtio_user0,path=$sock,queues=$q,queue_size=256" -- \
		--rxq="$q" --txq="$q" --nb-cores=1 --total-num-mbufs=16384 --no-lsc-interrupt -i "$@" \
		<"$fifo" >"$T/$n.log" 2>&1 &
	TP_PID[$n]=$!; PIDS+=("${TP_PID[$n]}")
	exec {fd}>"$fifo"
	TP_FD[$n]=$fd
}
tp() { echo "$2" >&"${TP_FD[$1]}"; sleep 0.5; }
# tp_stat NAME RX|TX: the port's counter from 'show port stats 0'
tp_stat() {
	local before
	before=$(grep -c "$2-packets" "$T/$1.log")
	tp "$1" "show port stats 0"
	wait_for 10 "testpmd $1 stats" sh -c "[ \$(grep -c '$2-packets' '$T/$1.log') -gt $before ]"
	grep -o "$2-packets: *[0-9]*" "$T/$1.log" | tail -1 | grep -o '[0-9]*$'
}
tp_quit() { tp "$1" quit; wait "${TP_PID[$1]}" 2>/dev/null; }
# tp_mac NAME: wait for testpmd NAME's port 0 MAC in its log; TP_MAC (lower case)
tp_mac() {
	wait_for 30 "$1's MAC" grep -q 'Port 0: [0-9A-F][0-9A-F]:' "$T/$1.log"
	TP_MAC=$(grep -o 'Port 0: [0-9A-F:]*' "$T/$1.log" | head -1 | awk '{print tolower($3)}')
}
