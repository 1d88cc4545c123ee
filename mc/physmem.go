package mc

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// cgroupLimitFiles hold the memory limit of the process's control group
// (a container's limit), in cgroup v2 and v1. Where no limit is set they
// say "max" or a huge number, which the physical memory then undercuts.
var cgroupLimitFiles = []string{
	"/sys/fs/cgroup/memory.max",
	"/sys/fs/cgroup/memory/memory.limit_in_bytes",
}

// PhysicalMemory returns the memory this process can use, in bytes: the
// machine's physical memory (MemTotal in /proc/meminfo) or the memory
// limit of its control group, whichever is lower; 0 if neither is known
// (not Linux).
func PhysicalMemory() int64 {
	total := int64(0)
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		total = parseMemTotal(data)
	}
	for _, path := range cgroupLimitFiles {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		if limit := parseCgroupLimit(data); limit > 0 && (total == 0 || limit < total) {
			total = limit
		}
	}
	return total
}

// parseMemTotal returns the MemTotal line of /proc/meminfo in bytes, or
// 0 if there is none.
func parseMemTotal(data []byte) int64 {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 || fields[0] != "MemTotal:" || fields[2] != "kB" {
			continue
		}
		kb, err := strconv.ParseInt(fields[1], 10, 64)
		if err != nil || kb <= 0 || kb > 1<<53 {
			return 0
		}
		return kb << 10
	}
	return 0
}

// parseCgroupLimit returns a cgroup's memory limit in bytes, or 0 for
// "max" and anything else that is not a positive number.
func parseCgroupLimit(data []byte) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}
