CREATE TABLE "blocked_destinations" (
	"network" text NOT NULL,
	"address" text NOT NULL,
	"reason" text NOT NULL,
	CONSTRAINT "blocked_destinations_network_address_pk" PRIMARY KEY("network","address")
);
