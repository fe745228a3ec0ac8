// Package publicnet dials public internet addresses only: what a stranger or a member of staff
// typed (a WordPress export's attachment, a link on a page) must never reach loopback, a private
// or link-local network, or the cloud's metadata address inside ours.
package publicnet

import (
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// sharedSpace is RFC 6598's carrier-grade NAT range, which net.IP does not call private.
var sharedSpace = netip.MustParsePrefix("100.64.0.0/10")

// Dialer dials public addresses only, giving up after timeout. The check runs on the address
// actually dialled, after name resolution, so a name that resolves inside is refused too.
func Dialer(timeout time.Duration) *net.Dialer {
	return &net.Dialer{Timeout: timeout, Control: control}
}

// Public reports whether ip is a public unicast address.
func Public(ip net.IP) bool {
	if ip == nil || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsUnspecified() || ip.IsMulticast() || ip.IsInterfaceLocalMulticast() {
		return false
	}
	a, ok := netip.AddrFromSlice(ip)
	return ok && !sharedSpace.Contains(a.Unmap())
}

func control(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if !Public(net.ParseIP(host)) {
		return fmt.Errorf("%s is not a public address", host)
	}
	return nil
}
