module.exports = { ...require('../../jest.int.preset.cjs'), displayName: 'notifications:int', rootDir: __dirname };
