CREATE DATABASE gateway OWNER platform;
CREATE DATABASE control_plane OWNER platform;
CREATE DATABASE tracing OWNER platform;
CREATE DATABASE export OWNER platform;
