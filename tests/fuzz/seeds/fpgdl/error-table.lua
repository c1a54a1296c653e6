error(setmetatable({}, {__name='X', __tostring=function() while true do end end}))
