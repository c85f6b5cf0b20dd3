# bench/config.sh - sourced: bench_config DIR writes DIR/routes.conf for
# a state directory DIR/state with Linux 6.12's MAINTAINERS (build/linux,
# else ../shared) and, when the tree is unpacked, the tree for the symbol
# index, and compiles the indexes; it returns 1 when there is no
# MAINTAINERS.  Needs SRC and SHARED.  bench/filter.sh runs the
# one-shot and the resident filter with it.
bench_config() {
	bc_tree=$SRC/build/linux
	if [ -f "$bc_tree/MAINTAINERS" ]; then
		MNT=$bc_tree/MAINTAINERS
	elif [ -f "$SHARED/data/linux/MAINTAINERS" ]; then
		MNT=$SHARED/data/linux/MAINTAINERS
	else
		return 1
	fi
	mkdir -p "$1/state"
	cat >"$1/routes.conf" <<CONF
state_dir = $1/state
maintainers = $MNT
rules_dir = $SRC/classifiers
router_address = triage@example.org
# every bench report comes from one sender: the per-sender cap would
# hold all but the first few and measure holds, not forwards
sender_cap = 0
CONF
	[ -d "$bc_tree/fs" ] && echo "kernel_tree = $bc_tree" >>"$1/routes.conf"
	"$SRC/triage" -c "$1/routes.conf" update >/dev/null
}
