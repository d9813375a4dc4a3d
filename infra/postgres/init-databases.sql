-- Runs once, when the postgres container initialises an empty data directory. One database per
-- service: a service never reads another's tables. Each app's migrate entry would also create its
-- database when missing; creating them here lets the databases exist before any app has started.
CREATE DATABASE orders;
CREATE DATABASE inventory;
CREATE DATABASE loyalty;
