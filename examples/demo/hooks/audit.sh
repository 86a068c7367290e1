#!/bin/sh
# Any event: append the payload to an audit log in the workspace (.hook-audit.log).
cat >> .hook-audit.log
echo >> .hook-audit.log
exit 0
