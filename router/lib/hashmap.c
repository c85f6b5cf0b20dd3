// SPDX-License-Identifier: GPL-2.0-only
/*
 * hashmap - open addressing over (hash, id) slots (see hashmap.h)
 */
#include <stdlib.h>

#include "hashmap.h"
#include "util.h"

#define MIN_SIZE 16

void hashmap_init(struct hashmap *m, hashmap_equal_fn equal, const void *data,
		  size_t expect)
{
	m->slot = NULL;
	m->size = 0;
	m->n = 0;
	m->equal = equal;
	m->data = data;
	if (expect) {
		size_t size = MIN_SIZE;

		while (size < 2 * expect)
			size *= 2;
		m->slot = xcalloc(size, sizeof(*m->slot));
		m->size = size;
	}
}

void hashmap_release(struct hashmap *m)
{
	free(m->slot);
	m->slot = NULL;
	m->size = m->n = 0;
}

/* place - the first empty slot of hash's probe sequence */
static void place(struct hashmap_slot *slot, size_t size, uint32_t hash,
		  uint32_t id1)
{
	size_t mask = size - 1, i;

	for (i = hash & mask; slot[i].id1; i = (i + 1) & mask)
		;
	slot[i].hash = hash;
	slot[i].id1 = id1;
}

static void grow(struct hashmap *m)
{
	size_t size = m->size ? 2 * m->size : MIN_SIZE, i;
	struct hashmap_slot *slot = xcalloc(size, sizeof(*slot));

	for (i = 0; i < m->size; i++)
		if (m->slot[i].id1)
			place(slot, size, m->slot[i].hash, m->slot[i].id1);
	free(m->slot);
	m->slot = slot;
	m->size = size;
}

uint32_t hashmap_get(const struct hashmap *m, uint32_t hash, const void *key)
{
	size_t mask, i;

	if (!m->size)
		return HASHMAP_NONE;
	mask = m->size - 1;
	for (i = hash & mask; m->slot[i].id1; i = (i + 1) & mask)
		if (m->slot[i].hash == hash &&
		    m->equal(m->data, m->slot[i].id1 - 1, key))
			return m->slot[i].id1 - 1;
	return HASHMAP_NONE;
}

void hashmap_add(struct hashmap *m, uint32_t hash, uint32_t id)
{
	if (id >= HASHMAP_MAX || m->n >= HASHMAP_MAX)
		die("BUG: hashmap: id %lu out of range", (unsigned long)id);
	if (2 * (m->n + 1) > m->size)
		grow(m);
	place(m->slot, m->size, hash, id + 1);
	m->n++;
}

/* one probe: the entry, or the empty slot where it goes (grown first) */
uint32_t hashmap_put(struct hashmap *m, uint32_t hash, const void *key,
		     uint32_t id)
{
	size_t mask, i;

	if (id >= HASHMAP_MAX || m->n >= HASHMAP_MAX)
		die("BUG: hashmap: id %lu out of range", (unsigned long)id);
	if (2 * (m->n + 1) > m->size)
		grow(m);
	mask = m->size - 1;
	for (i = hash & mask; m->slot[i].id1; i = (i + 1) & mask)
		if (m->slot[i].hash == hash &&
		    m->equal(m->data, m->slot[i].id1 - 1, key))
			return m->slot[i].id1 - 1;
	m->slot[i].hash = hash;
	m->slot[i].id1 = id + 1;
	m->n++;
	return id;
}
