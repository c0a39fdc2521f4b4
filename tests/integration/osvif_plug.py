#!/usr/bin/python3
# os-vif's ovs plugin (Debian's python3-os-vif), as Nova calls it: plug or
# unplug one vhost-user VIF on an OVSDB (docs/integration.md; test 62).
# Usage: osvif_plug.py CONNECTION native|vsctl plug|unplug client|server
#                      VIF_UUID SOCKET_PATH BRIDGE MTU
# mode "client": QEMU is the client, OVS (vsw) serves the socket
# (dpdkvhostuser); "server": QEMU serves it (dpdkvhostuserclient with
# vhost-server-path). Prints the port name os-vif made.
import sys
import uuid

from oslo_config import cfg

import os_vif
from os_vif import objects


def main():
    conn, iface, action, mode, vif_id, path, bridge, mtu = sys.argv[1:9]
    os_vif.initialize()
    group = "os_vif_ovs"
    cfg.CONF.set_override("ovsdb_connection", conn, group=group)
    cfg.CONF.set_override("ovsdb_interface", iface, group=group)
    cfg.CONF.set_override("ovs_vsctl_timeout", 30, group=group)
    os_vif.initialize(reset=True)
    net = objects.network.Network(id=str(uuid.uuid5(uuid.NAMESPACE_DNS, bridge)),
                                  bridge=bridge, mtu=int(mtu))
    profile = objects.vif.VIFPortProfileOpenVSwitch(
        interface_id=vif_id, datapath_type="netdev")
    vif = objects.vif.VIFVHostUser(
        id=vif_id, address="52:54:00:12:34:56", network=net, plugin="ovs",
        port_profile=profile, mode=mode, path=path,
        vif_name="vhu" + vif_id[:11])
    inst = objects.instance_info.InstanceInfo(
        uuid=str(uuid.uuid5(uuid.NAMESPACE_DNS, vif_id)), name="vm-" + vif_id[:8])
    if action == "plug":
        os_vif.plug(vif, inst)
    else:
        os_vif.unplug(vif, inst)
    print(vif.vif_name)


if __name__ == "__main__":
    main()
