-- Owners of the project "default", which the open-source edition of Unleash has no HTTP API for: a user
-- and a group holding the project role Owner, written as Unleash's own stores write them
-- (AccessStore.addUserToRole; GroupStore.create, GroupStore.addUsersToGroup, AccessStore.addGroupToRole).
-- The same on the schemas of 6.10.1, 7.6.5 and 8.2.0. Run by unleash.ts in one transaction:
--   psql -1 -v ON_ERROR_STOP=1 -v owner_email=... -v acting_user=... -v group_name=... -f seed-owners.sql
-- owner_email: a user that exists (signed up through a signup token); acting_user: recorded as created_by.

-- The user owner.
insert into role_user (role_id, user_id, project)
select roles.id, users.id, 'default'
from roles, users
where roles.name = 'Owner' and roles.type = 'project'
  and lower(users.email) = lower(:'owner_email') and users.deleted_at is null;

-- The group owner, with that user as its member.
with new_group as (
  insert into groups (name, description, mappings_sso)
  values (:'group_name', 'Owners of the default project', '[]')
  returning id
), members as (
  insert into group_user (group_id, user_id, created_by)
  select new_group.id, users.id, :'acting_user'
  from new_group, users
  where lower(users.email) = lower(:'owner_email') and users.deleted_at is null
)
insert into group_role (group_id, role_id, project, created_by)
select new_group.id, roles.id, 'default', :'acting_user'
from new_group, roles
where roles.name = 'Owner' and roles.type = 'project';
